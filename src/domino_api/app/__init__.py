"""A process put together: the app and its routes, its background parts, serving."""
