"""The published documents written from the code: OpenAPI, AsyncAPI, the docs'
generated parts and the deal vectors."""
