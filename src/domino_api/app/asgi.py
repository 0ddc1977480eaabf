"""The ASGI application object uvicorn serves."""

from domino_api.app.api import create_app
from domino_api.config import get_settings
from domino_api.logs import configure_logging

# `serve --workers N` starts each worker as a fresh interpreter that imports this module, not
# the CLI that configured the parent's logging: without this, workers would log nothing.
configure_logging(get_settings())
app = create_app()
