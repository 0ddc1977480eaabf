"""Tournament pairing and standings."""
