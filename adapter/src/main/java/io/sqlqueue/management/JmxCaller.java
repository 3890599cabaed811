package io.sqlqueue.management;

import io.sqlqueue.engine.AuditTrail;
import java.security.Principal;
import java.util.Comparator;
import java.util.Optional;
import javax.management.remote.JMXPrincipal;
import javax.security.auth.Subject;

/**
 * Who is calling a JMX operation, for the audit rows of the changes it makes: the principal the
 * JMX connector authenticated (a remote JConsole, a server's JMX connector with a login), else
 * {@value AuditTrail#JMX_ACTOR} (an in-process call or a connector without authentication has none).
 */
public final class JmxCaller {

    private JmxCaller() {
    }

    /**
     * The caller's name: its {@link JMXPrincipal} where the subject has one, else the first of its
     * principals by name, else {@value AuditTrail#JMX_ACTOR}; cut to
     * {@value AuditTrail#MAX_ACTOR_LENGTH} characters.
     */
    public static String name() {
        Subject subject = subject();
        Optional<String> name = subject == null ? Optional.empty() : subject.getPrincipals().stream()
                .sorted(Comparator.comparing((Principal p) -> !(p instanceof JMXPrincipal))
                        .thenComparing(Principal::getName, Comparator.nullsLast(Comparator.naturalOrder())))
                .map(Principal::getName).filter(n -> n != null && !n.isBlank()).findFirst();
        return name.map(n -> n.length() > AuditTrail.MAX_ACTOR_LENGTH ? n.substring(0, AuditTrail.MAX_ACTOR_LENGTH) : n)
                .orElse(AuditTrail.JMX_ACTOR);
    }

    /**
     * The subject the JMX connector runs the call as. Java 18 and later name it with
     * {@code Subject.current()}, and from Java 23 only that sees a subject set with
     * {@code Subject.callAs}; Java 17 has {@code Subject.getSubject} of the access-control context
     * only. Reflection picks the one the running Java has, as the adapter is built for 17.
     */
    private static Subject subject() {
        try {
            return (Subject) Subject.class.getMethod("current").invoke(null);
        } catch (NoSuchMethodException e) {
            return subjectOfContext();
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    @SuppressWarnings("removal") // the only way on Java 17 (see subject())
    private static Subject subjectOfContext() {
        return Subject.getSubject(java.security.AccessController.getContext());
    }
}
