"""The headless command line: parser, commands, output. No Textual."""
