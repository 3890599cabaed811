package io.sqlqueue.jms;

import io.sqlqueue.api.QueueMessage;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;

/**
 * A received {@link BytesMessage} in read-only mode (see {@link ReceivedMessage}): the read methods
 * read the body from its start ({@link BytesBodyReader}); {@link #reset()} goes back to it.
 */
final class ReceivedBytesMessage extends ReceivedMessage implements BytesMessage {

    private final byte[] body;
    private BytesBodyReader in;

    ReceivedBytesMessage(QueueMessage message) {
        super(message);
        this.body = message.body();
        reset();
    }

    @Override
    public long getBodyLength() {
        return body.length;
    }

    @Override
    public void reset() {
        in = new BytesBodyReader(body);
    }

    @Override
    public boolean readBoolean() throws JMSException {
        return in.readBoolean();
    }

    @Override
    public byte readByte() throws JMSException {
        return in.readByte();
    }

    @Override
    public int readUnsignedByte() throws JMSException {
        return in.readUnsignedByte();
    }

    @Override
    public short readShort() throws JMSException {
        return in.readShort();
    }

    @Override
    public int readUnsignedShort() throws JMSException {
        return in.readUnsignedShort();
    }

    @Override
    public char readChar() throws JMSException {
        return in.readChar();
    }

    @Override
    public int readInt() throws JMSException {
        return in.readInt();
    }

    @Override
    public long readLong() throws JMSException {
        return in.readLong();
    }

    @Override
    public float readFloat() throws JMSException {
        return in.readFloat();
    }

    @Override
    public double readDouble() throws JMSException {
        return in.readDouble();
    }

    @Override
    public String readUTF() throws JMSException {
        return in.readUTF();
    }

    @Override
    public int readBytes(byte[] value) throws JMSException {
        return in.readBytes(value, value.length);
    }

    /** Up to {@code length} bytes into {@code value}: how many were read, -1 at the end of the body. */
    @Override
    public int readBytes(byte[] value, int length) throws JMSException {
        return in.readBytes(value, length);
    }

    @Override
    public void writeBoolean(boolean value) throws JMSException {
        throw notWriteable("writeBoolean");
    }

    @Override
    public void writeByte(byte value) throws JMSException {
        throw notWriteable("writeByte");
    }

    @Override
    public void writeShort(short value) throws JMSException {
        throw notWriteable("writeShort");
    }

    @Override
    public void writeChar(char value) throws JMSException {
        throw notWriteable("writeChar");
    }

    @Override
    public void writeInt(int value) throws JMSException {
        throw notWriteable("writeInt");
    }

    @Override
    public void writeLong(long value) throws JMSException {
        throw notWriteable("writeLong");
    }

    @Override
    public void writeFloat(float value) throws JMSException {
        throw notWriteable("writeFloat");
    }

    @Override
    public void writeDouble(double value) throws JMSException {
        throw notWriteable("writeDouble");
    }

    @Override
    public void writeUTF(String value) throws JMSException {
        throw notWriteable("writeUTF");
    }

    @Override
    public void writeBytes(byte[] value) throws JMSException {
        throw notWriteable("writeBytes");
    }

    @Override
    public void writeBytes(byte[] value, int offset, int length) throws JMSException {
        throw notWriteable("writeBytes");
    }

    @Override
    public void writeObject(Object value) throws JMSException {
        throw notWriteable("writeObject");
    }

    /** A copy of the body; null when it is empty, which the specification calls no body. */
    @Override
    Object body() {
        return body.length == 0 ? null : body.clone();
    }
}
