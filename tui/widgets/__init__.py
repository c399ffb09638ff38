"""Widgets of the console: panels that draw engine state."""
