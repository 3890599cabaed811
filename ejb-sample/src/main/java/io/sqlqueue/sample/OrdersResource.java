package io.sqlqueue.sample;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.MediaType;

/**
 * The sample's HTTP face: {@code POST /api/orders?count=N[&invalid=M][&customer=C]} places N
 * orders (in transactions of up to 100), M of them with a broken payload, and answers the status;
 * {@code GET /api/orders/status} reports the counts. A missing, malformed or out-of-range
 * parameter is answered with 400 and an {@code application/problem+json} body naming it
 * ({@link Problem}).
 */
@Path("orders")
@RequestScoped
public class OrdersResource {

    static final int MAX_COUNT = 1_000_000;
    static final int MAX_CUSTOMER_LENGTH = 200;

    @EJB
    private OrderService orders;

    @EJB
    private OrderStatus status;

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public String place(@QueryParam("count") String count, @QueryParam("invalid") String invalid,
            @QueryParam("customer") String customer) {
        if (count == null) {
            throw new Problem.InvalidParameter("count", "count is required: how many orders to place, 1 to " + MAX_COUNT);
        }
        int n = integer("count", count, 1, MAX_COUNT);
        int badLeft = invalid == null ? 0 : integer("invalid", invalid, 0, n);
        String who = customer == null ? "demo" : customer;
        if (who.isBlank() || who.length() > MAX_CUSTOMER_LENGTH) {
            throw new Problem.InvalidParameter("customer", "customer must be 1 to " + MAX_CUSTOMER_LENGTH
                    + " characters, not blank; was " + who.length() + " characters");
        }
        for (int done = 0; done < n; done += 100) {
            int chunk = Math.min(100, n - done);
            int bad = Math.min(badLeft, chunk);
            orders.placeOrders(chunk, bad, who);
            badLeft -= bad;
        }
        return status.json();
    }

    @GET
    @Path("status")
    @Produces(MediaType.APPLICATION_JSON)
    public String status() {
        return status.json();
    }

    /** An integer parameter within [min, max], or a 400 naming it and its range. */
    private static int integer(String name, String value, int min, int max) {
        long parsed;
        try {
            parsed = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            parsed = Long.MIN_VALUE;
        }
        if (parsed < min || parsed > max) {
            String shown = value.length() > 40 ? value.substring(0, 40) + "…" : value;
            throw new Problem.InvalidParameter(name, name + " must be an integer from " + min + " to " + max
                    + ", was '" + shown + "'");
        }
        return (int) parsed;
    }

    /** Serves the resources under /api. */
    @ApplicationPath("api")
    public static class Api extends Application {
    }
}
