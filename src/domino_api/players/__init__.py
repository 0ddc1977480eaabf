"""Players: accounts, bearer tokens, profiles, settings, tile backs."""
