package io.sqlqueue.sample;

import jakarta.ejb.EJB;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Application;
import jakarta.ws.rs.core.MediaType;

/**
 * The sample's HTTP face: {@code POST /api/orders?count=N&invalid=M} places orders (in
 * transactions of up to 100), {@code GET /api/orders/status} reports the counts.
 */
@Path("orders")
@RequestScoped
public class OrdersResource {

    @EJB
    private OrderService orders;

    @EJB
    private OrderStatus status;

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public String place(@QueryParam("count") @DefaultValue("1") int count,
            @QueryParam("invalid") @DefaultValue("0") int invalid,
            @QueryParam("customer") @DefaultValue("demo") String customer) {
        if (count < 1 || count > 1_000_000 || invalid < 0 || invalid > count) {
            throw new jakarta.ws.rs.BadRequestException("count must be 1 to 1000000 and invalid 0 to count");
        }
        int badLeft = invalid;
        for (int done = 0; done < count; done += 100) {
            int n = Math.min(100, count - done);
            int bad = Math.min(badLeft, n);
            orders.placeOrders(n, bad, customer);
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

    /** Serves the resources under /api. */
    @ApplicationPath("api")
    public static class Api extends Application {
    }
}
