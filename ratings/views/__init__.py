"""Browser pages of the ratings app: lists, calculators and the rating officer's pages."""
