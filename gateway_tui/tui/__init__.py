"""The terminal app (Textual): app, screens, widgets, stylesheet."""
