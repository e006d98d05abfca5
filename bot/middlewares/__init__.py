"""aiogram outer middlewares: the update log and once-only handling, the chat context."""
