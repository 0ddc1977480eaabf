"""The lobby: public tables listed by preset, and quick pairing ("Play anyone now")."""
