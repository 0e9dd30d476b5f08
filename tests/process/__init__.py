"""The bot as its own OS process (``python bot.py``) against a small fake of Discord."""
