"""Friends, who of them is online, and challenges (docs/API.md, "Friends and challenges")."""
