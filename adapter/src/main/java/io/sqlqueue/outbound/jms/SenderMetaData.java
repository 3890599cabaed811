package io.sqlqueue.outbound.jms;

import jakarta.jms.ConnectionMetaData;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/** What a JMS connection of the sender says of itself: Jakarta Messaging 3.1, this adapter, its JMSX properties. */
final class SenderMetaData implements ConnectionMetaData {

    static final SenderMetaData INSTANCE = new SenderMetaData();

    private SenderMetaData() {
    }

    @Override
    public String getJMSVersion() {
        return "3.1";
    }

    @Override
    public int getJMSMajorVersion() {
        return 3;
    }

    @Override
    public int getJMSMinorVersion() {
        return 1;
    }

    @Override
    public String getJMSProviderName() {
        return "SQL Queue Resource Adapter";
    }

    /** The adapter's version from its jar's manifest, or "unknown" (classes not from the jar). */
    @Override
    public String getProviderVersion() {
        String version = SenderMetaData.class.getPackage().getImplementationVersion();
        return version == null ? "unknown" : version;
    }

    @Override
    public int getProviderMajorVersion() {
        return versionPart(0);
    }

    @Override
    public int getProviderMinorVersion() {
        return versionPart(1);
    }

    private int versionPart(int index) {
        String[] parts = getProviderVersion().split("[.-]");
        try {
            return parts.length > index ? Integer.parseInt(parts[index]) : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The JMSX properties a message has here: the delivery count a listener reads, the group a sender sets. */
    @Override
    public Enumeration<String> getJMSXPropertyNames() {
        return Collections.enumeration(List.of("JMSXDeliveryCount", "JMSXGroupID", "JMSXGroupSeq"));
    }
}
