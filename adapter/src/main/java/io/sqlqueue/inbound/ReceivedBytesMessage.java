package io.sqlqueue.inbound;

import io.sqlqueue.api.QueueMessage;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UTFDataFormatException;

/**
 * A received {@link BytesMessage} in read-only mode (see {@link ReceivedMessage}): the read methods
 * read the body from its start, as a {@link DataInputStream} does; {@link #reset()} goes back to it.
 */
final class ReceivedBytesMessage extends ReceivedMessage implements BytesMessage {

    private final byte[] body;
    private DataInputStream in;

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
        in = new DataInputStream(new ByteArrayInputStream(body));
    }

    /** One read; the end of the body is a MessageEOFException, a malformed UTF string a MessageFormatException. */
    private interface Read<T> {
        T from(DataInputStream in) throws IOException;
    }

    private <T> T read(String what, Read<T> read) throws JMSException {
        try {
            in.mark(Integer.MAX_VALUE);
            return read.from(in);
        } catch (EOFException e) {
            rewindAfterFailedRead();
            throw new MessageEOFException("the end of the body was reached reading a " + what);
        } catch (UTFDataFormatException e) {
            rewindAfterFailedRead();
            throw new MessageFormatException("the body holds no modified UTF-8 string here: " + e.getMessage());
        } catch (IOException e) { // a byte array never fails otherwise
            throw new IllegalStateException(e);
        }
    }

    /** A failed read leaves the position where it was, so that another read may try the same bytes. */
    private void rewindAfterFailedRead() {
        try {
            in.reset();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public boolean readBoolean() throws JMSException {
        return read("boolean", DataInputStream::readBoolean);
    }

    @Override
    public byte readByte() throws JMSException {
        return read("byte", DataInputStream::readByte);
    }

    @Override
    public int readUnsignedByte() throws JMSException {
        return read("unsigned byte", DataInputStream::readUnsignedByte);
    }

    @Override
    public short readShort() throws JMSException {
        return read("short", DataInputStream::readShort);
    }

    @Override
    public int readUnsignedShort() throws JMSException {
        return read("unsigned short", DataInputStream::readUnsignedShort);
    }

    @Override
    public char readChar() throws JMSException {
        return read("char", DataInputStream::readChar);
    }

    @Override
    public int readInt() throws JMSException {
        return read("int", DataInputStream::readInt);
    }

    @Override
    public long readLong() throws JMSException {
        return read("long", DataInputStream::readLong);
    }

    @Override
    public float readFloat() throws JMSException {
        return read("float", DataInputStream::readFloat);
    }

    @Override
    public double readDouble() throws JMSException {
        return read("double", DataInputStream::readDouble);
    }

    @Override
    public String readUTF() throws JMSException {
        return read("UTF string", s -> s.readUTF());
    }

    @Override
    public int readBytes(byte[] value) throws JMSException {
        return readBytes(value, value.length);
    }

    /** Up to {@code length} bytes into {@code value}: how many were read, -1 at the end of the body. */
    @Override
    public int readBytes(byte[] value, int length) throws JMSException {
        if (length < 0 || length > value.length) {
            throw new IndexOutOfBoundsException("length " + length + " is not between 0 and the array's "
                    + value.length);
        }
        return read("byte array", s -> s.available() == 0 ? -1 : s.read(value, 0, length));
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
