"""Thin Discord adapters: turn an interaction into one tables or storage call and reply."""
