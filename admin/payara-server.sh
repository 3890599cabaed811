#!/bin/sh
# SQL Queue on Payara Server: the adapter deployed once, standalone, for every application of the
# domain, and the resources applications use. Run against a running domain:
#
#   ASADMIN=/opt/payara6/bin/asadmin AS_ADMIN_PORT=4848 admin/payara-server.sh sqlqueue-adapter.rar [app.war]
#
# ASADMIN defaults to the asadmin on the PATH; asadmin itself reads AS_ADMIN_HOST, AS_ADMIN_PORT,
# AS_ADMIN_USER and AS_ADMIN_PASSWORDFILE. The database is an H2 in-memory one (Payara's bundled H2)
# for a first try: put your own URL, user and password in steps 2 and 3.
set -eu
RAR=$1
WAR=${2:-}
asadmin() { "${ASADMIN:-asadmin}" "$@"; }

# 1. The adapter, standalone, under a fixed name: applications' MDBs and connection pools refer to it as sqlqueue-adapter.
asadmin deploy --name sqlqueue-adapter "$RAR"

# 2. Adapter-wide settings (the ResourceAdapter's config properties): the database that pools and MDBs without settings of their own use. Restarts the adapter.
asadmin create-resource-adapter-config --property 'jdbcUrl=jdbc\:h2\:mem\:orders\;DB_CLOSE_DELAY\=-1:user=sa:password=sa' sqlqueue-adapter

# 3. The application's database as a server JDBC resource (Payara wants a password property, even an empty one).
asadmin create-jdbc-connection-pool --datasourceclassname org.h2.jdbcx.JdbcDataSource --restype javax.sql.DataSource --property 'url=jdbc\:h2\:mem\:orders\;DB_CLOSE_DELAY\=-1:user=sa:password=sa' orders-pool
asadmin create-jdbc-resource --connectionpoolid orders-pool jdbc/orders

# 4. Connection pools of the queue's connection factory (properties go to the ManagedConnectionFactory).
#    queue-pool enqueues through jdbc/orders: the application's writes and its sends share one local transaction, no XA.
asadmin create-connector-connection-pool --raname sqlqueue-adapter --connectiondefinition io.sqlqueue.api.QueueConnectionFactory --transactionsupport NoTransaction --property 'dataSourceJndiName=jdbc/orders' queue-pool
#    queue-xa-pool: the adapter's own XA connections to the adapter's jdbcUrl, for two-phase commit with other resources.
asadmin create-connector-connection-pool --raname sqlqueue-adapter --connectiondefinition io.sqlqueue.api.QueueConnectionFactory --transactionsupport XATransaction --maxpoolsize 32 queue-xa-pool
#    queue-local-pool: the adapter's own non-XA connections (a database without XA); the send commits with the caller's transaction, as its only resource.
asadmin create-connector-connection-pool --raname sqlqueue-adapter --connectiondefinition io.sqlqueue.api.QueueConnectionFactory --transactionsupport LocalTransaction --maxpoolsize 32 --property 'useXA=false' queue-local-pool

# 5. The JNDI names applications look up: @Resource(lookup = "queue/orders") QueueConnectionFactory factory;
asadmin create-connector-resource --poolname queue-pool queue/orders
asadmin create-connector-resource --poolname queue-xa-pool queue/orders-xa
asadmin create-connector-resource --poolname queue-local-pool queue/orders-local
#    For JMS applications (README: Moving a JMS bean): the adapter's jakarta.jms.ConnectionFactory on jdbc/orders,
#    and the queue table admin_orders as a jakarta.jms.Queue: @Resource(lookup = "jms/orders") Queue orders;
asadmin create-connector-connection-pool --raname sqlqueue-adapter --connectiondefinition jakarta.jms.ConnectionFactory --transactionsupport NoTransaction --property 'dataSourceJndiName=jdbc/orders' jms-pool
asadmin create-connector-resource --poolname jms-pool jms/ordersFactory
asadmin create-admin-object --raname sqlqueue-adapter --restype jakarta.jms.Queue --classname io.sqlqueue.jms.JmsQueue --property name=admin_orders jms/orders

# 6. An activation property set by the admin, without rebuilding the application: an MDB whose
#    activation says maxConcurrency = ${MPCONFIG=sqlqueue.orders.maxConcurrency:1} now runs 3 deliveries at a time.
asadmin create-system-properties sqlqueue.orders.maxConcurrency=3

# 7. The application (after the adapter: its MDB binds to sqlqueue-adapter when it activates).
if [ -n "$WAR" ]; then asadmin deploy --contextroot /orders --name orders "$WAR"; fi
