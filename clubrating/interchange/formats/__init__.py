"""The file formats the site reads and writes, as pure Python (no Django, no project app).

``text`` decodes uploaded bytes, ``csvtext`` reads CSV tables, ``trf`` reads and writes FIDE
TRF16 files and ``detect`` tells a TRF file from a CSV table by its content. Errors are plain
exceptions that carry the line (and column, where known); the services turn them into
translated refusals.
"""
