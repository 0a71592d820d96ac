#pragma once
int stride_baseline_placeholder(void);
