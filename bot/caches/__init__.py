"""What the bot keeps in memory of chats, users and members (read once, kept briefly)."""
