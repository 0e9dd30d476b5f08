-- Reserved: this number belongs to another change on its way.
SELECT 1;
