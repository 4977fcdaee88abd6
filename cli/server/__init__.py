"""`cardrules serve`: tables played in browsers, each seat sent its own view and nothing more.

`tables` holds the matches (a journal each, on disk) and builds every message a seat is sent;
`app` is the ASGI application (Starlette) that speaks HTTP and WebSockets; `static/` the page.
"""
