package dev.eventrouter.cost;

import io.vertx.core.Future;

import java.time.LocalDate;
import java.util.List;

/** A platform's report of spend per ad per day, read a page at a time. */
interface SpendReader {

  /** The account's zone (an IANA id) and currency, as the platform or the config says. */
  record Account(String zone, String currency) {}

  Future<Account> account();

  /** The page at {@code cursor} (null: the first) of the days {@code from} to {@code to}, of at most {@code limit}. */
  Future<SpendPage> page(Account account, LocalDate from, LocalDate to, int limit, String cursor);

  /** The most days one request may cover. */
  int maxDays();

  /** The page sizes to try, largest first: a platform that asks for less data gets the next. */
  List<Integer> limits();
}
