"""HTTP and WebSocket routes over the service."""
