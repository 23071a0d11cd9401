"""The file formats the site reads and writes, as pure Python (no Django, no project app).

``text`` decodes uploaded bytes, ``csvtext`` reads CSV tables, ``trf`` reads and writes FIDE
TRF16 files, ``pgn`` reads PGN game files, ``names`` splits the files' "Last, First" names and
``detect`` tells a TRF file from a CSV table by its content. Errors are plain exceptions that
carry the line (and column, where known) and English messages marked for translation; the
services turn them into translated refusals (``clubrating.interchange.refusals``).
"""
