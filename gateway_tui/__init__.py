"""gateway-tui: a keyboard-first terminal client for messaging gateways."""

__version__ = "0.1.0"
