"""The ASGI application object uvicorn serves."""

from domino_api.api import create_app

app = create_app()
