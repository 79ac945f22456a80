"""The app's own widgets. Import each from its module, so importing this package stays cheap."""
