"""The national rating list: the federation's published list (CSV or XLSX, with a column
mapping the rating officer chooses once) kept per list date for the members it names, matched by
national ID. A club app: it never imports the ratings app; handing a list to a pool's starting
list is composed by a page (``views``)."""
