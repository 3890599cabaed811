package io.sqlqueue.sample;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * Every error of the sample's API as {@code application/problem+json} (RFC 9457): a bad
 * parameter (400, naming it and what it allows), an unknown path or method (the status JAX-RS
 * chose), a failure of the sample itself (500).
 */
@Provider
public class Problem implements ExceptionMapper<Exception> {

    static final String MEDIA_TYPE = "application/problem+json";

    /** A request parameter that is missing, malformed or out of range: answered with 400. */
    static final class InvalidParameter extends RuntimeException {
        private final String parameter;

        InvalidParameter(String parameter, String detail) {
            super(detail);
            this.parameter = parameter;
        }
    }

    @Override
    public Response toResponse(Exception e) {
        if (e instanceof InvalidParameter invalid) {
            return answer(400, "Invalid request parameter", invalid.getMessage(),
                    ",\"parameter\":" + json(invalid.parameter));
        }
        if (e instanceof WebApplicationException w) {
            Response.StatusType status = w.getResponse().getStatusInfo();
            return answer(status.getStatusCode(), status.getReasonPhrase(), w.getMessage(), "");
        }
        return answer(500, "Internal Server Error", "the sample failed: " + e.getMessage(), "");
    }

    private static Response answer(int status, String title, String detail, String more) {
        return Response.status(status).type(MEDIA_TYPE).entity("{\"type\":\"about:blank\",\"title\":" + json(title)
                + ",\"status\":" + status + ",\"detail\":" + json(detail) + more + "}").build();
    }

    /** A JSON string: quotes, backslashes and control characters escaped. */
    static String json(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder s = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> s.append("\\\"");
                case '\\' -> s.append("\\\\");
                case '\n' -> s.append("\\n");
                default -> {
                    if (c < 0x20) {
                        s.append(String.format("\\u%04x", (int) c));
                    } else {
                        s.append(c);
                    }
                }
            }
        }
        return s.append('"').toString();
    }
}
