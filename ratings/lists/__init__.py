"""The rating list, in one package: a pool's live list and its published lists, each with the same
faces (the page, the print layout, the CSV/XLSX exports, the PDF and the public API).

- ``order``: the one order of every list (rating, then folded name, then record number);
- ``filters``: the reader's filters (name, club, sex, age group, activity);
- ``table``: the table and its columns for the page, print and exports, and what a reader may see
  (``ListPrivacy``);
- ``faces``: a list built once for all its faces (``ListSource``, filters, table, exports, PDF);
- ``http``: the HTTP side the faces share (validators, cache lifetime, the reader's privacy).

Publishing a list is a service (``ratings.services.lists``); its rows are read by
``ratings.selectors``. The submodules are imported by name: the selectors use the order, so this
package imports none of them itself.
"""
