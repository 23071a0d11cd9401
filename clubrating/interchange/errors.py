"""The one exception the interchange services raise for input they refuse."""


class ImportRefused(Exception):
    """Bad input file or data: the message is translated and says where; nothing was saved."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return str(self.message)
