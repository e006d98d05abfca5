"""The Telegram bot around the engine (PRODUCT.md)."""
