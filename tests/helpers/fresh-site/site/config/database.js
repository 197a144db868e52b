const path = require('path');

// As create-strapi-app's template has it, for the two databases the fresh-site test runs on:
// SQLite in the site's own .tmp by default, MySQL (or MariaDB) when DATABASE_CLIENT says so.
module.exports = ({ env }) => {
  const client = env('DATABASE_CLIENT', 'sqlite');
  const connections = {
    mysql: {
      connection: mysqlConnection(env('DATABASE_URL', 'mysql://root@127.0.0.1:3306/strapi')),
      pool: { min: env.int('DATABASE_POOL_MIN', 2), max: env.int('DATABASE_POOL_MAX', 10) },
    },
    sqlite: {
      connection: {
        filename: path.join(__dirname, '..', env('DATABASE_FILENAME', '.tmp/data.db')),
      },
      useNullAsDefault: true,
    },
  };
  return {
    connection: {
      client,
      ...connections[client],
      acquireConnectionTimeout: env.int('DATABASE_CONNECTION_TIMEOUT', 60000),
    },
  };
};

/** The fields of a mysql:// URL, as the mysql2 driver takes them (it has no connection string). */
function mysqlConnection(address) {
  const url = new URL(address);
  return {
    host: url.hostname,
    port: Number(url.port || 3306),
    database: decodeURIComponent(url.pathname.slice(1)),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  };
}
