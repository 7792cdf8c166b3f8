/** Whole words, words typed halfway and words with a typo, as readers search Django's documentation. */
export const DJANGO_QUERIES = [
  'queryset', 'querys', 'select_related', 'prefetch', 'middleware', 'middlware', 'csrf token', 'timezone',
  'signals', 'authentication backend', 'custom user model', 'static files', 'cache framework', 'sessions',
  'admin actions', 'model field reference', 'transaction atomic', 'paginat', 'url dispatcher',
  'class based views', 'generic views', 'test client', 'settings', 'logging', 'email backend', 'file uploads',
  'internationalization', 'translaton', 'databse', 'aggreg', 'annot', 'contenttypes', 'sitemap', 'securty',
  'form validation', 'template tags', 'migratons', 'ForeignKey on_delete', 'get_object_or_404', 'async views',
];
/** Timed rounds of the queries, after one that warms up. */
export const SEARCH_ROUNDS = 5;
