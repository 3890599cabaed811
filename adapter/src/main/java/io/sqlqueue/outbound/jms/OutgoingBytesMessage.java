package io.sqlqueue.outbound.jms;

import io.sqlqueue.jms.BytesBodyReader;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.MessageNotWriteableException;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UTFDataFormatException;

/**
 * A {@link BytesMessage} the JMS sender made: write-only, as the specification says, until
 * {@link #reset()} makes it read-only ({@link BytesBodyReader}); {@link #clearBody()} makes it
 * empty and writable again. A send sends the bytes written so far, in either mode.
 */
final class OutgoingBytesMessage extends OutgoingJmsMessage implements BytesMessage {

    private ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private DataOutputStream out = new DataOutputStream(buffer);
    /** The body once reset() made it read-only, else null. */
    private byte[] body;
    private BytesBodyReader in;

    OutgoingBytesMessage(byte[] body) {
        if (body != null) {
            buffer.writeBytes(body);
        }
    }

    @Override
    byte[] bodyBytes() {
        return body != null ? body.clone() : buffer.toByteArray();
    }

    @Override
    Object body() {
        byte[] bytes = bodyBytes();
        return bytes.length == 0 ? null : bytes; // an empty body is no body, as the specification says
    }

    @Override
    public void clearBody() {
        buffer = new ByteArrayOutputStream();
        out = new DataOutputStream(buffer);
        body = null;
        in = null;
    }

    @Override
    public void reset() {
        body = bodyBytes();
        in = new BytesBodyReader(body);
    }

    private BytesBodyReader reader() throws MessageNotReadableException {
        if (in == null) {
            throw new MessageNotReadableException("the body is in write-only mode: call reset() to read it");
        }
        return in;
    }

    /** One write of the stream. */
    private interface Write {
        void to(DataOutputStream out) throws IOException;
    }

    private void write(Write write) throws JMSException {
        if (body != null) {
            throw new MessageNotWriteableException("the body is in read-only mode since reset(): call clearBody() to"
                    + " write a new one");
        }
        try {
            write.to(out);
        } catch (UTFDataFormatException e) {
            throw new MessageFormatException("writeUTF: " + e.getMessage());
        } catch (IOException e) { // a byte array never fails otherwise
            throw new IllegalStateException(e);
        }
    }

    @Override
    public long getBodyLength() throws JMSException {
        reader(); // the specification: only in read-only mode
        return body.length;
    }

    @Override
    public boolean readBoolean() throws JMSException {
        return reader().readBoolean();
    }

    @Override
    public byte readByte() throws JMSException {
        return reader().readByte();
    }

    @Override
    public int readUnsignedByte() throws JMSException {
        return reader().readUnsignedByte();
    }

    @Override
    public short readShort() throws JMSException {
        return reader().readShort();
    }

    @Override
    public int readUnsignedShort() throws JMSException {
        return reader().readUnsignedShort();
    }

    @Override
    public char readChar() throws JMSException {
        return reader().readChar();
    }

    @Override
    public int readInt() throws JMSException {
        return reader().readInt();
    }

    @Override
    public long readLong() throws JMSException {
        return reader().readLong();
    }

    @Override
    public float readFloat() throws JMSException {
        return reader().readFloat();
    }

    @Override
    public double readDouble() throws JMSException {
        return reader().readDouble();
    }

    @Override
    public String readUTF() throws JMSException {
        return reader().readUTF();
    }

    @Override
    public int readBytes(byte[] value) throws JMSException {
        return reader().readBytes(value, value.length);
    }

    @Override
    public int readBytes(byte[] value, int length) throws JMSException {
        return reader().readBytes(value, length);
    }

    @Override
    public void writeBoolean(boolean value) throws JMSException {
        write(o -> o.writeBoolean(value));
    }

    @Override
    public void writeByte(byte value) throws JMSException {
        write(o -> o.writeByte(value));
    }

    @Override
    public void writeShort(short value) throws JMSException {
        write(o -> o.writeShort(value));
    }

    @Override
    public void writeChar(char value) throws JMSException {
        write(o -> o.writeChar(value));
    }

    @Override
    public void writeInt(int value) throws JMSException {
        write(o -> o.writeInt(value));
    }

    @Override
    public void writeLong(long value) throws JMSException {
        write(o -> o.writeLong(value));
    }

    @Override
    public void writeFloat(float value) throws JMSException {
        write(o -> o.writeFloat(value));
    }

    @Override
    public void writeDouble(double value) throws JMSException {
        write(o -> o.writeDouble(value));
    }

    /** @throws MessageFormatException for a string longer than modified UTF-8's 65535 bytes */
    @Override
    public void writeUTF(String value) throws JMSException {
        write(o -> o.writeUTF(value));
    }

    @Override
    public void writeBytes(byte[] value) throws JMSException {
        write(o -> o.write(value));
    }

    @Override
    public void writeBytes(byte[] value, int offset, int length) throws JMSException {
        write(o -> o.write(value, offset, length));
    }

    /**
     * Writes a boxed primitive, a String or a byte array as its own write method does.
     *
     * @throws NullPointerException for null, as the specification says
     * @throws MessageFormatException for any other type
     */
    @Override
    public void writeObject(Object value) throws JMSException {
        if (value == null) {
            throw new NullPointerException("writeObject of null: a BytesMessage cannot hold a null");
        }
        if (value instanceof Boolean v) {
            writeBoolean(v);
        } else if (value instanceof Byte v) {
            writeByte(v);
        } else if (value instanceof Short v) {
            writeShort(v);
        } else if (value instanceof Character v) {
            writeChar(v);
        } else if (value instanceof Integer v) {
            writeInt(v);
        } else if (value instanceof Long v) {
            writeLong(v);
        } else if (value instanceof Float v) {
            writeFloat(v);
        } else if (value instanceof Double v) {
            writeDouble(v);
        } else if (value instanceof String v) {
            writeUTF(v);
        } else if (value instanceof byte[] v) {
            writeBytes(v);
        } else {
            throw new MessageFormatException("writeObject takes a boxed primitive, a String or a byte[], not a "
                    + value.getClass().getName());
        }
    }
}
