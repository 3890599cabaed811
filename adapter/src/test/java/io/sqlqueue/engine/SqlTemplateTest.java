package io.sqlqueue.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SqlTemplateTest {

    @Test
    void namedParametersBecomePositional() {
        SqlTemplate t = new SqlTemplate("SELECT :a, :b_s, :a FROM x WHERE y = :long_name1");
        assertEquals("SELECT ?, ?, ? FROM x WHERE y = ?", t.jdbcSql());
    }

    @Test
    void aSizeBecomesALiteralAndLeavesLongerNamesAlone() {
        SqlTemplate t = new SqlTemplate("SELECT TOP (:n) x FROM y WHERE a = :name AND b = :n").withLiteral("n", 50);
        assertEquals("SELECT TOP (50) x FROM y WHERE a = ? AND b = 50", t.jdbcSql());
    }

    @Test
    void aListBecomesOneParameterPerSlotAndLeavesLongerNamesAlone() {
        SqlTemplate t = new SqlTemplate("SELECT x FROM y WHERE id IN (:picked) AND z = :picked_ids").withList("picked", 3);
        assertEquals("SELECT x FROM y WHERE id IN (?, ?, ?) AND z = ?", t.jdbcSql());
    }

    @Test
    void textWithoutParametersIsUnchanged() {
        assertEquals("SELECT 1", new SqlTemplate("SELECT 1").jdbcSql());
    }
}
