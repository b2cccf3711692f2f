def wait_for(predicate, timeout, every=0.05):
    # predicate()'s first true value within `timeout` s, else its last (false) one.
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    return predicate()
