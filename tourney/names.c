/*
 * names.c -- made-up Chinese personal names for the demo tournament and
 * the simulations (xq_chinese_name): a surname and one or two given
 * characters, drawn from the caller's random stream.
 */
#include <stdio.h>
#include <string.h>

#include "tourney_internal.h"

/* The commonest Han surnames, the first syllables of Uyghur names as
 * written in Chinese (the Xinjiang events' players), and compound
 * surnames. */
static const char *const surnames[] = {
  "王", "李", "张", "刘", "陈", "杨", "黄", "赵", "吴", "周", "徐", "孙", "马", "朱", "胡", "郭",
  "何", "高", "林", "罗", "郑", "梁", "谢", "宋", "唐", "许", "韩", "冯", "邓", "曹", "彭", "曾",
  "肖", "田", "董", "袁", "潘", "于", "蒋", "蔡", "余", "杜", "叶", "程", "苏", "魏", "吕", "丁",
  "任", "沈", "姚", "卢", "姜", "崔", "钟", "谭", "陆", "汪", "范", "金", "石", "廖", "贾", "夏",
  "艾", "买", "阿", "努", "热", "吐", "古", "欧阳", "司马", "上官",
};
static const char *const given_m[] = {
  "伟", "强", "磊", "军", "洋", "勇", "杰", "涛", "明", "超", "刚", "鹏", "飞", "宇", "浩", "凯",
  "健", "俊", "帆", "旭", "宁", "龙", "林", "晨", "博", "文", "斌", "志", "海", "峰", "波", "辉",
  "天", "一", "鑫", "智", "靖", "川", "鸿", "建", "国", "荣", "华", "新", "成", "德", "锋", "江",
};
static const char *const given_w[] = {
  "芳", "娜", "敏", "静", "丽", "艳", "娟", "秀", "霞", "平", "玉", "萍", "红", "欣", "婷", "雪",
  "琳", "颖", "倩", "佳", "慧", "梅", "燕", "丹", "晶", "莉", "雯", "悦", "洁", "琴",
};

#define N_OF(a) ((int)(sizeof (a) / sizeof (a)[0]))

void xq_chinese_name(const xq_namegen *g, int sex, int no, char *out, size_t cap)
{
  const char *const *giv = sex == 'w' ? given_w : given_m;
  int ng = sex == 'w' ? N_OF(given_w) : N_OF(given_m);
  for (int tries = 0;; tries++) {
    const char *sur = surnames[g->draw(g->ctx, N_OF(surnames))];
    const char *g1 = giv[g->draw(g->ctx, ng)];
    const char *g2 = g->draw(g->ctx, 3) ? giv[g->draw(g->ctx, ng)] : "";
    snprintf(out, cap, "%s%s%s", sur, g1, g2);
    if (tries >= XQ_NAME_TRIES_MAX) {
      size_t len = strlen(out);
      snprintf(out + len, cap > len ? cap - len : 0, "%d", no);
    }
    if (!g->taken || !g->taken(g->ctx, out)) return;
  }
}
