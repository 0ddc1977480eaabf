"""The HTTP edge: transport, middleware, headers, limits, inputs, responses, the routes'
dependencies and the problem documents."""
