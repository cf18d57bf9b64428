//! Native scalar functions, CAST and selector arithmetic.
