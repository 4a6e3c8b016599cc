"""The query engine: answers search, read and recall from a built site only (never the brain)."""
