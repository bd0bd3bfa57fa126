# Doxygen's input filter for the Markdown pages (docs/Doxyfile, FILTER_PATTERNS): Doxygen 1.9.4
# reads `...'text' in a code span as a `quotation' and <lambda> as an HTML tag, so the messages of
# docs/errors.md that name '<lambda>' are spelled with entities. GitHub renders the file as is.
s/'<lambda>'/\&apos;\&lt;lambda\&gt;\&apos;/g
s/<lambda>/\&lt;lambda\&gt;/g
