"""The kernel: what the build and the query engine both rest on (refs, periods, times, text, errors,
the parsed model, listing and pack formats, …). A kernel module imports only other kernel modules."""
