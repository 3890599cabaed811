package io.sqlqueue.jms;

import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UTFDataFormatException;

/**
 * The reads of a {@code BytesMessage} in read-only mode, from the start of its body, as a
 * {@link DataInputStream} reads: the end of the body is a {@link MessageEOFException}, a malformed
 * UTF string a {@link MessageFormatException}, and a failed read leaves the position where it was,
 * so that another read may try the same bytes. Shared by the messages the adapter delivers and
 * those it sends. Not thread-safe.
 */
public final class BytesBodyReader {

    private final DataInputStream in;

    /** Reads {@code body}, which it does not copy. */
    public BytesBodyReader(byte[] body) {
        this.in = new DataInputStream(new ByteArrayInputStream(body));
    }

    /** One read of the stream. */
    private interface Read<T> {
        T from(DataInputStream in) throws IOException;
    }

    private <T> T read(String what, Read<T> read) throws JMSException {
        try {
            in.mark(Integer.MAX_VALUE);
            return read.from(in);
        } catch (EOFException e) {
            rewind();
            throw new MessageEOFException("the end of the body was reached reading a " + what);
        } catch (UTFDataFormatException e) {
            rewind();
            throw new MessageFormatException("the body holds no modified UTF-8 string here: " + e.getMessage());
        } catch (IOException e) { // a byte array never fails otherwise
            throw new IllegalStateException(e);
        }
    }

    private void rewind() {
        try {
            in.reset();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public boolean readBoolean() throws JMSException {
        return read("boolean", DataInputStream::readBoolean);
    }

    public byte readByte() throws JMSException {
        return read("byte", DataInputStream::readByte);
    }

    public int readUnsignedByte() throws JMSException {
        return read("unsigned byte", DataInputStream::readUnsignedByte);
    }

    public short readShort() throws JMSException {
        return read("short", DataInputStream::readShort);
    }

    public int readUnsignedShort() throws JMSException {
        return read("unsigned short", DataInputStream::readUnsignedShort);
    }

    public char readChar() throws JMSException {
        return read("char", DataInputStream::readChar);
    }

    public int readInt() throws JMSException {
        return read("int", DataInputStream::readInt);
    }

    public long readLong() throws JMSException {
        return read("long", DataInputStream::readLong);
    }

    public float readFloat() throws JMSException {
        return read("float", DataInputStream::readFloat);
    }

    public double readDouble() throws JMSException {
        return read("double", DataInputStream::readDouble);
    }

    public String readUTF() throws JMSException {
        return read("UTF string", s -> s.readUTF()); // a lambda: the method reference is ambiguous
    }

    /** Up to {@code length} bytes into {@code value}: how many were read, -1 at the end of the body. */
    public int readBytes(byte[] value, int length) throws JMSException {
        if (length < 0 || length > value.length) {
            throw new IndexOutOfBoundsException("length " + length + " is not between 0 and the array's "
                    + value.length);
        }
        return read("byte array", s -> s.available() == 0 ? -1 : s.read(value, 0, length));
    }
}
