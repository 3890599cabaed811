package io.sqlqueue.engine;

/**
 * A DELETE or an UPDATE as a {@link Dialect} writes it, in the parts its row-returning forms
 * wrap or fill ({@link Dialect#returningMessages}, {@link Dialect#moveRows}): what comes
 * {@code before} it (an isolation level, a CTE), its {@code head} (the statement up to its
 * condition, with the dialect's row limit and table hints), its {@code tail} (the condition and any
 * row limit after it, or SQL Server's {@code FROM … JOIN}), and what comes {@code after} it (query
 * hints). SQL Server puts {@code OUTPUT} between head and tail.
 */
record Dml(String before, String head, String tail, String after, boolean deletes) {

    /** {@code change} where {@code condition} holds, with nothing around it. */
    static Dml where(Change change, String condition) {
        return new Dml("", change.head("", ""), "WHERE " + condition, "", change.deletes());
    }

    /** The statement as it is, returning nothing. */
    String statement() {
        return before + head + " " + tail + after;
    }

    /** What a statement changes: the rows of a DELETE, or an UPDATE's SET list. */
    record Change(String table, String set) {

        static Change delete(String table) {
            return new Change(table, null);
        }

        static Change update(String table, String set) {
            return new Change(table, set);
        }

        boolean deletes() {
            return set == null;
        }

        /** The statement up to its condition, with a row limit ({@code top}, "" or {@code TOP (:n) }) and table hints ("" or {@code  WITH (…)}). */
        String head(String top, String hints) {
            return deletes() ? "DELETE " + top + "FROM " + table + hints : "UPDATE " + top + table + hints + " SET " + set;
        }
    }
}
