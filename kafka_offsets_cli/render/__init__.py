"""Pure renderers: results in, text (or rich renderables) out. No I/O here."""
