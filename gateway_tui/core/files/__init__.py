"""What the app keeps on disk: storage, config, drafts, exports."""
