"""Thin Typer commands over the pure core."""
