package io.sqlqueue.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TableNameTest {

    @Test
    void parsesTableAndSchemaQualifiedNames() {
        TableName plain = TableName.parse("orders");
        assertNull(plain.schema());
        assertEquals("orders", plain.table());
        TableName qualified = TableName.parse("sales.Orders_2");
        assertEquals("sales", qualified.schema());
        assertEquals("Orders_2", qualified.table());
        assertEquals("sales.Orders_2_dlq", qualified.withSuffix("_dlq").toString());
    }

    @Test
    void everyDialectQuotesItsOwnWay() {
        TableName t = TableName.parse("sales.orders");
        assertEquals("[sales].[orders]", new SqlServerDialect().qualified(t));
        assertEquals("\"sales\".\"orders\"", new PostgresDialect().qualified(t));
        assertEquals("\"sales\".\"orders\"", new H2Dialect().qualified(t));
        assertEquals("[orders]", new SqlServerDialect().qualified(TableName.parse("orders")));
    }

    @Test
    void rejectsAnythingThatIsNotAnIdentifier() {
        for (String bad : new String[] {"orders; DROP TABLE x", "a]b", "a\"b", "a'b", "a-b", "a b", "9lives", "a.", ".a",
                "a.b.c", "sch ema.t", "x".repeat(TableName.MAX_LENGTH + 1), "ordérs", ""}) {
            assertThrows(IllegalArgumentException.class, () -> TableName.parse(bad), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> TableName.parse(null));
    }
}
