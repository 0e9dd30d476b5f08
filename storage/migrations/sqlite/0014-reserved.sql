-- Reserved: the daily challenge's migration takes number 14. This empty step only keeps the
-- numbers without a gap until that migration replaces it (delete this file then).
SELECT 1;
