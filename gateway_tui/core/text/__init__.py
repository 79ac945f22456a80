"""Text rules shared by every face: sanitizing, formatting, URLs, phone numbers."""
