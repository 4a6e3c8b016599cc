"""The error kinds a user can meet; only cli.py turns them into exit codes (docs/replies.md#errors-and-exit-codes)."""


class BfError(Exception):
    """An error with a stable code and exit status, shown to users as JSON on stderr."""

    code = "internal"
    exit = 1

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def to_json(self) -> dict:
        return {"error": self.message, "code": self.code}


class InvalidInput(BfError):
    code = "invalid_input"
    exit = 2

    def __init__(self, what: str, reason: str | None = None):
        # "invalid input: scope: reason" — `what` names the argument when known.
        text = f"{what}: {reason}" if reason is not None else what
        super().__init__(f"invalid input: {text}")
        self.argument = what if reason is not None else None
        self.reason = reason if reason is not None else what


class ConfigError(InvalidInput):
    """brain.toml is wrong: names the key, what was expected and what was found."""

    def __init__(self, message: str):
        BfError.__init__(self, f"invalid input: {message}")
        self.argument = "config"
        self.reason = message


class NotFound(BfError):
    code = "not_found"
    exit = 3

    def __init__(self, ref: str):
        super().__init__(f"not found: {ref}")


class Incomplete(BfError):
    code = "incomplete"
    exit = 4

    def __init__(self, ref: str, brains: list[str]):
        super().__init__(f"incomplete: {ref} may be in unavailable brain(s) {', '.join(brains)}")


class IndexMissing(BfError):
    code = "index_missing"
    exit = 5

    def __init__(self, site: str, why: str = ""):
        extra = f" ({why})" if why else ""
        super().__init__(f"index missing for site '{site}' — run bf build first{extra}")


class BuildError(BfError):
    code = "build_failed"
    exit = 1


class EmbeddingsMissing(BfError):
    code = "embeddings_missing"
    exit = 6

    def __init__(self, site: str, mode: str, asked: str | None = None):
        asked = asked or f"--mode {mode}"
        super().__init__(f"embeddings missing for site '{site}': {asked} needs vectors — build without --no-embeddings")
