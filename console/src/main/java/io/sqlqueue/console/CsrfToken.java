package io.sqlqueue.console;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The token every changing form carries (field {@value #FIELD}): random, one per session, so a
 * page of another site cannot post a change in the operator's name. Compared in constant time.
 */
final class CsrfToken {

    static final String FIELD = "csrf";
    private static final String ATTRIBUTE = CsrfToken.class.getName();
    private static final SecureRandom RANDOM = new SecureRandom();

    private CsrfToken() {
    }

    /** The session's token, made on first use. */
    static String of(HttpSession session) {
        synchronized (session) {
            String token = (String) session.getAttribute(ATTRIBUTE);
            if (token == null) {
                byte[] bytes = new byte[32];
                RANDOM.nextBytes(bytes);
                token = HexFormat.of().formatHex(bytes);
                session.setAttribute(ATTRIBUTE, token);
            }
            return token;
        }
    }

    /** Whether the request carries its session's token. */
    static boolean matches(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        String expected = session == null ? null : (String) session.getAttribute(ATTRIBUTE);
        String sent = request.getParameter(FIELD);
        return expected != null && sent != null && MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                sent.getBytes(StandardCharsets.US_ASCII));
    }
}
