"""The core: no Textual. The gateway client, services, state, campaigns, files, text."""
